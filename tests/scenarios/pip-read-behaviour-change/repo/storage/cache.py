import hashlib

from blobcask import Cask, read_blob


def fingerprint(cask: Cask, key: str) -> str:
    data = read_blob(cask, key)
    return hashlib.sha256(data).hexdigest()


def fingerprints(cask: Cask) -> dict[str, str]:
    return {key: fingerprint(cask, key) for key in cask.list_blobs()}
