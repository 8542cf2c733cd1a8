import client from "./db";

export function openRoom(room: string, done: (ok: boolean) => void) {
  client.connect(() => {
    const rooms = client.db("app").collection("rooms");
    rooms.findOne({ room_id: room }, (err, found) => {
      if (err || found) return done(false);
      rooms.insertOne({ room_id: room, users: [] },
        function (err2) {
          done(!err2);
        });
    });
  });
}

export const closeRoom = (room: string) =>
  client.db("app").collection("rooms").deleteOne({ room_id: room }, function (err) {
    if (err) console.error(err);
  });
