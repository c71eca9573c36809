"""General combat resolvers that any game may use: step-reduction dice and close assault."""
