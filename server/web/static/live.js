// Live pages: server-sent events replace each [data-region] when it changes; clocks run between updates.

// rules/live.py's clock_at and the clock's M:SS, mirrored: tests/data/clock_vectors.json checks both sides.
// A running clock counting down stops at 0; one counting up at the period's length (0: no cap).
function clockAt(ms, down, running, limit, gone) {
  if (!running || gone <= 0) return ms;
  if (down) return Math.max(0, ms - gone);
  return limit > 0 ? Math.min(limit, ms + gone) : ms + gone;
}
function clockText(ms, down) {
  var s = down ? Math.ceil(ms / 1000) : Math.floor(ms / 1000);
  if (s < 0) s = 0;
  var r = s % 60;
  return Math.floor(s / 60) + ":" + (r < 10 ? "0" : "") + r;
}
if (typeof module !== "undefined") module.exports = { clockAt: clockAt, clockText: clockText };

if (typeof document !== "undefined") (function () {
  "use strict";
  var regions = [].filter.call(document.querySelectorAll("[data-region]"), function (e) { // nested: the server adds
    return !e.parentElement.closest("[data-region]"); }).map(function (e) { return e.getAttribute("data-region"); });
  var status = document.getElementById("live-status");
  var offset = Number(document.body.getAttribute("data-now")) - Date.now(); // server clock minus ours
  var source = null, backoff = 1000, heard = Date.now();
  function show(text, cls) { if (status) { status.textContent = text; status.className = "live-status " + cls; } }
  function tick() {
    var now = Date.now() + offset;
    var clocks = document.querySelectorAll("[data-clock]");
    for (var i = 0; i < clocks.length; i++) {
      var el = clocks[i], ms = Number(el.getAttribute("data-ms")), down = el.getAttribute("data-down") === "1";
      ms = clockAt(ms, down, el.getAttribute("data-running") === "1", Number(el.getAttribute("data-limit")),
                   now - Number(el.getAttribute("data-at")));
      var text = clockText(ms, down);
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
// My team (kept on this phone, no account) marked wherever it appears; the team list narrows as you type.
if (typeof document !== "undefined") (function () {
  "use strict";
  var K = "courtside-team", d = document, b = d.getElementById("follow");
  function get() { try { return localStorage.getItem(K) || ""; } catch (e) { return ""; } }
  function set(t) { try { if (t) localStorage.setItem(K, t); else localStorage.removeItem(K); } catch (e) {} }
  function name(a) { try { return decodeURIComponent(a.getAttribute("href").slice(6)); } catch (e) { return ""; } }
  function mark() {
    var t = get(), all = d.querySelectorAll("a[href^='/team/'], [data-team]"), nav = d.getElementById("my-team");
    var own = !!b && b.getAttribute("data-follow") === t; // on my team's own page every row is its: no marks
    for (var i = 0; i < all.length; i++) {
      var el = all[i], n = el.hasAttribute("data-team") ? el.getAttribute("data-team") : name(el);
      el.classList.toggle("mine", !!t && n === t && el !== nav && !(own && el.closest("main")));
    }
    if (nav) { nav.hidden = !t; nav.href = "/team/" + encodeURIComponent(t); nav.lastChild.textContent = t; }
    if (b) {
      if (!b.getAttribute("data-off")) b.setAttribute("data-off", b.textContent);
      b.hidden = false; b.setAttribute("aria-pressed", own); b.textContent = b.getAttribute(own ? "data-on" : "data-off");
    }
  }
  if (b) b.addEventListener("click", function () { var t = b.getAttribute("data-follow"); set(get() === t ? "" : t); mark(); });
  var q = d.getElementById("q"), list = d.getElementById("teamlist"), found = d.getElementById("found");
  function fold(s) { return s.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase(); }
  if (q && list) q.addEventListener("input", function () {
    var w = fold(q.value), items = list.children, shown = 0;
    for (var i = 0; i < items.length; i++) { var hit = fold(items[i].textContent).indexOf(w) >= 0; items[i].hidden = !hit; shown += hit; }
    if (found) found.textContent = shown ? "" : found.getAttribute("data-none");
  });
  // The live regions are replaced whole: mark again after each.
  new MutationObserver(function (ms) {
    for (var i = 0; i < ms.length; i++) if (ms[i].addedNodes.length && ms[i].target.hasAttribute && ms[i].target.hasAttribute("data-region")) return mark();
  }).observe(d.body, {childList: true, subtree: true});
  mark();
})();
