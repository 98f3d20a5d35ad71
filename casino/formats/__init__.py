"""Number and date formats for the pages (Django's FORMAT_MODULE_PATH).

Imports: nothing of the apps.
"""
