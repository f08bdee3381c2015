"""Serving the app: security headers, the rate limit on guesses, log redaction, gunicorn's
settings, and what every blueprint shares about HTTP."""
