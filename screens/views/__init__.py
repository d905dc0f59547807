"""Pages: thin views that render a screen or call a service, then come back (post/redirect/get)."""
