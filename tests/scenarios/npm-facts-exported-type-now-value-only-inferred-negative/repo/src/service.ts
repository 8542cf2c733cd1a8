import { connect } from 'mqkit';

export function startBridge(url: string) {
  const client = connect(url, { keepalive: 30 });
  client.subscribe('sensors/#');
  return (topic: string, reading: number) => client.publish(topic, String(reading));
}
