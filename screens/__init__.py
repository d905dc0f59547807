"""Everything a screen or a device sees or does: pairing, the clock screens, the dealer tablets,
the director console, the live push over Channels, the demo and ``serve``. The top layer."""
