"""The HDMI scoreboard screen, drawn with pygame (a thin shell around rules/)."""
