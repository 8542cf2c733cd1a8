import type { RouteRequest, RouteReply } from "routekit";

const OPEN = new Set(["POST-/users", "POST-/sessions"]);

export async function verifyToken(request: RouteRequest, reply: RouteReply) {
  const route = `${request.method}-${request.routerPath}`;
  if (OPEN.has(route)) return;
  if (!request.headers.authorization) {
    return reply.status(401).send({ message: "Unauthorized" });
  }
}
