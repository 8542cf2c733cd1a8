import { HttpClient } from "httpkit";
import { UsersService } from "./app/users.service";
import { Legacy } from "./app/legacy";

const users = new UsersService(new HttpClient());
users.list().then(console.log);
console.log(new Legacy().read("{}"));
