"""The rules planner: the domain policy that triages an update offline, from the conversation."""
