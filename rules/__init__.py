"""The pure rules core shared by the table and the server: rulesets, matches, standings, tournaments."""
