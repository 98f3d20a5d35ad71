"""Who reads the advantage-play page and API: surveillance and gaming managers (the desk's
readers). Pit bosses, finance, the cage, the count team and compliance are refused."""

from casino.roles import GAMING_MANAGER, SURVEILLANCE

ADVANTAGE_READERS = (SURVEILLANCE, GAMING_MANAGER)
