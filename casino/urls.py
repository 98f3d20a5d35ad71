from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from casino import views

admin.site.site_header = "Casino table games — administration"
admin.site.site_title = "Casino table games"

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/v1/", include("tables.api.urls")),
    path("", include("tables.urls")),
    path("", include("audit.reports.urls")),
    path("", include("audit.jackpots.urls")),
    path("", include("tables.pages.urls")),
    path("", include("audit.pages.urls")),
]

handler400 = "casino.api_errors.bad_request"
handler403 = "casino.api_errors.permission_denied"
handler404 = "casino.api_errors.not_found"
handler500 = "casino.api_errors.server_error"
