import { MemoryStore } from "../support/memory-store";
import { describeStoreContract } from "./store-contract";

describeStoreContract("in-memory", () => new MemoryStore());
