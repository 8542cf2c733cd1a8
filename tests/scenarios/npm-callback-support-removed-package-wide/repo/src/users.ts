import { DocClient, ObjectId } from "docstore";

export interface UserRow {
  _id: ObjectId;
  email: string;
}

export default function findUser(client: DocClient, email: string, callback: (err: Error, user: UserRow | null) => void) {
  const users = client.db("app").collection("users");
  users.findOne({ email }, callback as any);
}
