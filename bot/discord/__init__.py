"""The Discord transport: application commands, components, delivery and clocks over the core."""
