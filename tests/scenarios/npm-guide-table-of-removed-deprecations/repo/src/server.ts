import routekit from "routekit";
import { verifyToken } from "./hooks/auth";

const app = routekit();
app.addHook("onRequest", verifyToken);
app.listen({ port: 3333 });
