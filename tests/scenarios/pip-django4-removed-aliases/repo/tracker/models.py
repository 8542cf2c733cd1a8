from django.db import models
from django.utils.translation import ugettext_lazy as _


class Ticket(models.Model):
    title = models.CharField(_("title"), max_length=200)
    done = models.BooleanField(_("done"), default=False)

    class Meta:
        verbose_name = _("ticket")
