"""The tournament formats' business rules: plain functions that the views and tests call."""
