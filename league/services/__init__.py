"""The league's business rules: plain functions that views, the API and tasks call."""
