const dockstore = require("dockstore");

const userSchema = new dockstore.Schema({ name: String, email: String });

module.exports = dockstore.model("User", userSchema);
