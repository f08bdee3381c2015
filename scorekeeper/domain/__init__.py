"""The game, pure: rules and presets, what a table enters, what is impossible, scores, the meld
checker, the printed rules and the chart. No Flask, no database: everything else calls in here."""
