"""Who sees what in this app (casino/roles.py names the roles). Pit bosses, the cage and the
count team see neither the holds by period nor the investigations."""

from casino.roles import COMPLIANCE, FINANCE, GAMING_MANAGER, SURVEILLANCE

#: The hold by period page, API and CSV: finance, gaming managers and surveillance.
HOLD_READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE)
#: Investigations are read by surveillance and compliance too; owned and worked by finance and
#: gaming managers (services.OWNER_ROLES, SIGNER_ROLES).
INVESTIGATION_READERS = (FINANCE, GAMING_MANAGER, SURVEILLANCE, COMPLIANCE)
SETTINGS_READERS = INVESTIGATION_READERS
#: Who runs the check for a day by hand.
CHECK_RUNNERS = (FINANCE, GAMING_MANAGER)
