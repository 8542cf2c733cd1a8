import Queue from "queuekit";

export const mail = new Queue({ name: "mail" });
