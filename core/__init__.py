"""Shared infrastructure: what every app uses and no app owns (the cache, the channel layer,
JSON parsing, queuing tasks, the health check). It imports no app of the project."""
