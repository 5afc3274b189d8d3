// Live pages: server-sent events replace each [data-region] when it changes; clocks run between updates.
(function () {
  "use strict";
  var regions = Array.prototype.map.call(document.querySelectorAll("[data-region]"), function (e) { return e.getAttribute("data-region"); });
  var status = document.getElementById("live-status");
  var offset = Number(document.body.getAttribute("data-now")) - Date.now(); // server clock minus ours
  var source = null, backoff = 1000, heard = Date.now();
  function show(text, cls) { if (status) { status.textContent = text; status.className = "live-status " + cls; } }
  function fmt(ms, down) {
    var s = down ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
    if (s < 0) s = 0;
    var r = s % 60;
    return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
  }
  function tick() {
    var now = Date.now() + offset;
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i], ms = Number(el.getAttribute("data-ms")), down = el.getAttribute("data-down") === "1";
      if (el.getAttribute("data-running") === "1") {
        var gone = Math.max(0, now - Number(el.getAttribute("data-at"))), limit = Number(el.getAttribute("data-limit"));
        ms = down ? Math.max(0, ms - gone) : (limit > 0 ? Math.min(limit, ms + gone) : ms + gone);
      }
      var text = fmt(ms, down);
      if (el.textContent !== text) el.textContent = text;
    }
  }
  function connect() {
    if (!regions.length || !window.EventSource) return;
    var url = "/live?" + regions.map(function (r) { return "r=" + encodeURIComponent(r); }).join("&");
    source = new EventSource(url);
    heard = Date.now();
    source.addEventListener("region", function (ev) {
      var m = JSON.parse(ev.data);
      offset = m.now - Date.now();
      heard = Date.now();
      var nodes = document.querySelectorAll("[data-region]");
      for (var i = 0; i < nodes.length; i++) if (nodes[i].getAttribute("data-region") === m.id) nodes[i].innerHTML = m.html;
      show(status && status.getAttribute("data-live") || "Live", "is-live");
      tick();
    });
    source.addEventListener("beat", function (ev) { heard = Date.now(); offset = Number(ev.data) - Date.now(); });
    source.onopen = function () { backoff = 1000; heard = Date.now(); show(status && status.getAttribute("data-live") || "Live", "is-live"); };
    source.onerror = function () {
      show(status && status.getAttribute("data-down") || "Reconnecting…", "is-down");
      if (source.readyState === 2) { source.close(); setTimeout(connect, backoff); backoff = Math.min(backoff * 2, 15000); }
    };
  }
  // A phone asleep or a proxy that drops idle streams: no heartbeat for 40 s means start again.
  setInterval(function () {
    if (source && Date.now() - heard > 40000) { source.close(); connect(); }
    tick();
  }, 250);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible" && source && source.readyState === 2) connect();
  });
  connect();
})();
