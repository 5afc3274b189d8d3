"""The Pi program at the table: buttons, horn, journal, MQTT link (a thin shell around rules/)."""
