import { HttpClient } from "httpkit";
import { Injectable } from "./di";

export interface User { id: number; name: string }

@Injectable()
export class UsersService {
  private readonly base = "/api";

  constructor(private readonly api: HttpClient) {}

  list(): Promise<User[]> {
    return this.api.fetchJson(`${this.base}/users`);
  }
}
