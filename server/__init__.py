"""The central standings service and the tournament web pages (a thin shell around rules/).

For the web part (issue 12), the stable interface:

- ``server.store.Store``: ``Store.open(db_url, plan)`` (runs the Alembic migrations), ``store.plan``
  (``server.plan.Plan``: ``id``, ``tournament``, ``ruleset``, ``entry_teams``, ``fixtures``
  {match id -> ScheduledMatch}, ``courts`` {court id -> name}), ``store.progress()``.
  ``server.plan.load_plan(path, seed=None, tournament_id=None)``.
- ``server.queries`` (reads; each takes the store first): ``tournament_progress``, ``pool_tables``,
  ``schedule``, ``court_schedule(court)``, ``team_schedule(team)``, ``fixture(match_id)``, ``results``,
  ``match_events(match_id)``, ``live_states``, ``live_state(court)``, ``court_presence``,
  ``conflicts``, ``open_conflicts``, ``change_log(limit)``; views are frozen dataclasses
  (``FixtureView``, ``ResultView``, ``LiveView``, ``PresenceView``, ``ConflictView``, ``ChangeView``).
- ``server.desk`` (the organiser's writes, audited, each returns ``Affected``): ``record_result``,
  ``settle_conflict``, ``move_match``, ``record_decision``; refusals raise ``server.desk.DeskError``.
- ``server.service.Service``: the loop; paho's network thread only puts records on its inbox
  (``server.connection``). ``service.submit(step)`` runs ``step()`` on the loop's thread
  (the desk's writes) and publishes what its ``Affected`` names; ``service.listeners`` are called
  with ``(pools, courts)`` for each message a batch's commit stored, before its ack (the web part's live pages).
  What it publishes once a batch is stored (the pools' tables, the top scorers, the courts' schedules) is
  ``server.publishing``; the records on its inbox are ``server.inbox``.
- The server (``courtside server ... --http HOST:PORT``) starts ``server.webserve.start_web``: the
  web part's app over ``server.web.service_backend.ServiceBackend``, served by uvicorn in a thread
  of the service's own process.

The MQTT side: topics and envelope in ``rules.protocol`` (docs/asyncapi.yaml); checks and idempotent
storage in ``server.ingest``; the broker's password file by ``server.passwords``.
"""
