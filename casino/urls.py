from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from casino import token_pages, views

admin.site.site_header = "Casino table games — administration"
admin.site.site_title = "Casino table games"
# The app list beside every admin page leaves a portrait tablet too little room for a list's
# columns; the breadcrumbs and the index lead everywhere it did.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("tokens/", token_pages.tokens, name="api-tokens"),
    path("tokens/<int:pk>/revoke/", token_pages.token_revoke, name="api-token-revoke"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-redoc"),
    path("api/v1/", include("tables.api.urls")),
    path("api/v1/", include("audit.api_urls")),
    path("api/v1/", include("audit.jackpots.api_urls")),
    path("api/v1/", include("audit.reports.api_urls")),
    path("api/v1/", include("audit.fluctuations.api_urls")),
    path("api/v1/", include("audit.advantage.api_urls")),
    path("api/v1/", include("audit.compliance.api_urls")),
    path("api/v1/", include("audit.ratings.api_urls")),
    path("", include("tables.urls")),
    path("", include("audit.reports.urls")),
    path("", include("audit.jackpots.urls")),
    path("", include("tables.pages.urls")),
    path("", include("tables.accounting.urls")),
    path("", include("tables.closing.urls")),
    path("", include("audit.pages.urls")),
    path("", include("audit.fluctuations.urls")),
    path("", include("audit.advantage.urls")),
    path("", include("audit.compliance.urls")),
    path("", include("audit.ratings.urls")),
]

handler400 = "casino.api_errors.bad_request"
handler403 = "casino.api_errors.permission_denied"
handler404 = "casino.api_errors.not_found"
handler500 = "casino.api_errors.server_error"
