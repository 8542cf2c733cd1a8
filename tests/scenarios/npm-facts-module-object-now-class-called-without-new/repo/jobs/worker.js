import Queue from "queuekit";

// one queue per worker process
const queue = Queue({ name: "jobs", concurrency: 4 });

queue.process(async (job) => {
  await job.run();
});

export default queue;
