from django.http import JsonResponse
from django.shortcuts import get_object_or_404

from .models import Ticket


def ticket_list(request):
    return JsonResponse({"tickets": list(Ticket.objects.values("id", "title", "done"))})


def ticket_detail(request, pk):
    ticket = get_object_or_404(Ticket, pk=pk)
    return JsonResponse({"id": ticket.id, "title": str(ticket.title), "done": ticket.done})
