export class HTTPError extends Error {}
function fetchkit(url, options) { return request(url, options); }
fetchkit.post = (url, options) => fetchkit(url, { ...options, method: "POST" });
export default fetchkit;
