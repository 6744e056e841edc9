"""What every game shares: descriptions, options, states, moves, views, boards and kernels."""
