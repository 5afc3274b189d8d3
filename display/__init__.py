"""The HDMI venue scoreboard, drawn with pygame-ce (a thin shell around rules/).

The interface the table (firmware/) uses, each frame::

    from display.scoreboard import Scoreboard
    from display.view import ScoreboardView, TeamLook, Notice, Link, BetweenMatches, NextMatch

    board = Scoreboard(surface)            # the display surface (or any pygame.Surface); theme optional
    changed = board.draw(ScoreboardView(
        state,                             # rules.match.MatchState at the frame's instant; None between matches
        ruleset,                           # rules.ruleset.Ruleset of the match (sport words, time-outs, caps)
        home=TeamLook("Hungary Juniors", short="HUN", colour="#d7263d"),
        away=TeamLook("Serbia Juniors"),
        language="sv",                     # the tournament's language (en, sv, sk)
        round="semi_final", stage="SF1",   # shown small in the top corner
        notices=(Notice("refused", error=err),),     # err: the engine's IllegalCommand, worded in `language`;
                                                     # or Notice("recovered", down_ms=...), Notice("info", text)
        link=Link(online=False, waiting=12),          # the MQTT link: a discreet "offline" mark
        between=BetweenMatches(NextMatch(...), tables=display.between.pool_tables(...), page=n),
        court="Hall 1",                    # the title between matches
        prompt="player #7",                # what the table official is typing, over the notices
        help_lines=("F1  clock start/stop", ...),    # the key map, shown while given
    ))
    pygame.display.update(changed)         # only the rectangles that changed ([] when nothing did)

The scoreboard is the hall's: the table hands it no prompt and no notice (firmware/pygame_screen.py) unless
the venue has one screen and chose the official's compact line (``Notice("operator", text)``, small and
plain). The official's own view is ``display.operator.OperatorView``, drawn on a second screen by
``display.operator_screen.OperatorScreen`` or served as a page by the table (firmware/operator_page.py).

``state`` None draws the between-matches screen; a finished state draws the final score (with
``between`` given, the next match under it). Colours: (r, g, b), "#rrggbb" or a plain name; water
polo always shows the first-named team in white caps. ``board.frame`` is the last frame's words
and numbers (display.content.Frame), for logs and tests.

After a window is exposed or resized call ``board.invalidate()``; the next frame repaints
everything at the new size. Keys are not read here: the table polls pygame's events itself
(``firmware/pygame_screen.py``) and queues them as commands, so one loop owns everything.

Opening the screen: ``display.screen.open_screen()`` picks KMS/DRM full screen on a Pi
without a desktop (``SDL_VIDEODRIVER=kmsdrm``), a window under X11/Wayland, and SDL's
dummy driver when ``SDL_VIDEODRIVER=dummy`` (tests); on a machine with no screen at all it
raises ``display.screen.ScreenError`` saying what is missing, instead of letting SDL draw
into its invisible "offscreen" driver.
"""

import os

# pygame prints a banner on import; the table's log and the command's output are no place for it.
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
