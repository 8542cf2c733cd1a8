import { SensorService } from './service';

new SensorService(process.env.BROKER_URL || 'mqtt://localhost').start();
