import { DocClient, ObjectId } from "docstore";

export interface UserRow {
  _id: ObjectId;
  email: string;
}

export default async function findUser(client: DocClient, email: string): Promise<UserRow | null> {
  const users = client.db("app").collection("users");
  return (await users.findOne({ email })) as UserRow | null;
}
