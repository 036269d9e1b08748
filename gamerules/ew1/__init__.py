"""Eternal War One II (seed 000_afeb9d2c9ccd2b72.txt): a persistent game on a grid board."""
