"""Percentile's game rules: plain Python, no Django, dice passed in.

Every rule takes plain values and an injected ``random.Random``-like source and returns a frozen
result that says what happened (each roll, each modifier and its source, the outcome).
"""
