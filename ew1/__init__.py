"""Eternal War One II (seed 000_afeb9d2c9ccd2b72.txt): the system's Django side. Its pure rules
are gamerules.ew1; this app registers the system with campaigns.rule_systems and holds its sheet,
items, creation drafts and services. The board play (combat) and spells (magic) build on it."""
