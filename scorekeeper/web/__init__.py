"""The web pages: their blueprints (home, language, matches) and the forms they read."""
