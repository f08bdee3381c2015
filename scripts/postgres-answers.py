"""Exit 0 when the PostgreSQL database at the URL given answers within seconds, else 1."""

import sys

from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from scorekeeper.store.database import normalise_database_url

engine = create_engine(normalise_database_url(sys.argv[1]), connect_args={"connect_timeout": 3})
try:
    with engine.connect() as connection:
        connection.execute(text("SELECT 1"))
except OperationalError:
    sys.exit(1)
