from webkit.serving import run_simple
from webkit.wrappers import Request, Response


@Request.application
def application(request):
    return Response("hello")


if __name__ == "__main__":
    run_simple("127.0.0.1", 5000, application)
