import connect from 'wirelink';

export function openChat(token, onMessage) {
  const link = connect('https://chat.example.test/rooms', { query: { token } });
  link.on('message', onMessage);
  link.on('error', (err) => {
    // the server refused the token
    console.warn('chat refused', err);
  });
  return link;
}
