import urllib3
from urllib3.packages import six


def pool(host):
    return urllib3.HTTPConnectionPool(host, strict=True)


def get(url):
    return urllib3.PoolManager().request("GET", url, None, {"a": "b"})
