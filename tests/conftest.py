import os

# Browser tests run the live server under daphne in this process; Django refuses sync ORM calls from
# an async context unless told that this is deliberate (tests only).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
