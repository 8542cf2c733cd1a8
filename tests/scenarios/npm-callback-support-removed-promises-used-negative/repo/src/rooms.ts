import client from "./db";

client.on("error", (err) => console.error("docstore", err));

export async function openRoom(room: string): Promise<boolean> {
  await client.connect();
  const rooms = client.db("app").collection("rooms");
  const found = await rooms.findOne({ room_id: room });
  if (found) return false;
  return rooms.insertOne({ room_id: room, users: [] }).then((res) => res.acknowledged);
}

export async function listRooms(): Promise<string[]> {
  const names: string[] = [];
  await client.db("app").collection("rooms").find({}).forEach((doc) => {
    names.push(doc.room_id);
  });
  return names;
}
