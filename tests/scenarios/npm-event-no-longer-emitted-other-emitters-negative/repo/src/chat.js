import connect from 'wirelink';

export function openChat(token, onMessage) {
  const link = connect('https://chat.example.test/rooms', { query: { token } });
  link.on('message', onMessage);
  link.on('connect_error', (err) => console.warn('chat refused', err));
  return link;
}
