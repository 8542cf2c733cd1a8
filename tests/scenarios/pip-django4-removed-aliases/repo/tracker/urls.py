from django.conf.urls import url

from . import views

urlpatterns = [
    url(r"^$", views.ticket_list, name="ticket-list"),
    url(r"^tickets/(?P<pk>\d+)/$", views.ticket_detail, name="ticket-detail"),
]
