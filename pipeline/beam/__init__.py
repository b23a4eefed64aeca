"""What the Beam stages share: option pass-through, file access on any
filesystem, and running a pipeline (runner, counters, progress)."""
