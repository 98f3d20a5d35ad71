"""The demo casino of the quick start (``manage.py load_demo``) and the separate jackpot
scenario (``manage.py jackpots_demo_day``): a floor, a user per role and the simulated days
every role's pages show.

Imports: any app, through their services, as live play does; it sits on top of every app and
nothing imports it.
"""
