const http = require('http');
const SockKit = require('sockkit');
const { spawn } = require('child_process');

const server = http.createServer().listen(process.env.PORT || 3000);
const wss = new SockKit.Server({ server });

wss.on('connection', (ws, req) => {
  const rtmpUrl = decodeURIComponent(req.url.replace('/rtmp/', ''));
  const ffmpeg = spawn('ffmpeg', ['-i', '-', '-f', 'flv', rtmpUrl]);
  ws.on('message', (msg) => ffmpeg.stdin.write(msg));
  ws.on('close', () => ffmpeg.kill('SIGINT'));
});
