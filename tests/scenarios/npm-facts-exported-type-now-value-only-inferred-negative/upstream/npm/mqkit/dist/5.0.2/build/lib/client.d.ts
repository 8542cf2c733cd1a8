export default class MqClient {
    constructor(url: string, opts?: object);
    publish(topic: string, message: string): this;
    subscribe(topic: string): this;
    end(): void;
}
