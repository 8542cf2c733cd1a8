import { Client, connect } from 'mqkit';

export class SensorService {
  protected client: Client;

  constructor(private readonly url: string) {}

  start(): void {
    this.client = connect(this.url, { keepalive: 30 });
    this.client.subscribe('sensors/#');
  }

  send(topic: string, reading: number): void {
    this.client.publish(topic, String(reading));
  }
}
