"""The central standings service and the tournament web pages (a thin shell around rules/)."""
