//! The closed vocabularies of the logical form: every enumerated string the schema allows.
//!
//! Each enum lists the values seen in the annotations plus a few cheap ones from the droidlet
//! schema (marked "schema" below) so that parser or LLM output using them is not rejected. An unknown
//! string fails deserialization with serde's "unknown variant" error, which [`super::error`] turns
//! into [`super::ErrorKind::UnknownValue`]. The JSON spelling of every variant is written out once,
//! here, so the mapping is greppable.

/// Declares a `Copy` enum whose variants serialize as the given strings, with `ALL`, `as_str` and
/// `Display` (which prints the JSON spelling).
macro_rules! vocabulary {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub enum $name {
            $($(#[$vmeta])* #[serde(rename = $text)] $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The JSON spelling.
            pub fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// What kind of utterance the chat is (the root's `dialogue_type`).
    DialogueType {
        HumanGiveCommand = "HUMAN_GIVE_COMMAND",
        Noop = "NOOP",
        PutMemory = "PUT_MEMORY",
        GetMemory = "GET_MEMORY",
        GetCapabilities = "GET_CAPABILITIES",
        /// A request outside what the bot can do (2 rows).
        OtherAction = "OTHERACTION",
        /// A variant spelling of GET_CAPABILITIES (1 row).
        BotCapabilities = "BOT_CAPABILITIES",
    }
}

vocabulary! {
    /// What an action does (`action_type` inside `action_sequence`).
    ActionType {
        Build = "BUILD",
        Move = "MOVE",
        Dig = "DIG",
        Dance = "DANCE",
        Destroy = "DESTROY",
        OtherAction = "OTHERACTION",
        Spawn = "SPAWN",
        Get = "GET",
        Fill = "FILL",
        Stop = "STOP",
        Resume = "RESUME",
        FreeBuild = "FREEBUILD",
        Undo = "UNDO",
        Scout = "SCOUT",
        CompositeAction = "COMPOSITE_ACTION",
        /// Mine, chop or harvest what a thing gives (craftmate; not in the annotations).
        Collect = "COLLECT",
        /// Till and plant a field (craftmate).
        Plant = "PLANT",
        /// Put items into a container, the `receiver` (craftmate).
        Put = "PUT",
        /// Drop items at the `location` (craftmate).
        Drop = "DROP",
        /// Craft an item (craftmate).
        Craft = "CRAFT",
        /// Give a thing, the `reference_object`, the colour or material the `schematic`'s
        /// filters say ("paint the tower red", "make it glass"; craftmate).
        Paint = "PAINT",
    }
}

vocabulary! {
    /// The topic of a GET_CAPABILITIES question (the root's `action_type`).
    CapabilityTopic {
        Any = "ANY",
        Build = "BUILD",
        Move = "MOVE",
        Dig = "DIG",
        Dance = "DANCE",
        Destroy = "DESTROY",
        Spawn = "SPAWN",
        Get = "GET",
        Fill = "FILL",
        Stop = "STOP",
        Resume = "RESUME",
        Undo = "UNDO",
        PutMemory = "PUT_MEMORY",
        GetMemory = "GET_MEMORY",
    }
}

vocabulary! {
    /// A direction relative to a reference object (or the speaker/agent when there is none).
    RelativeDirection {
        Left = "LEFT",
        Right = "RIGHT",
        Up = "UP",
        Down = "DOWN",
        Front = "FRONT",
        Back = "BACK",
        Away = "AWAY",
        Inside = "INSIDE",
        Outside = "OUTSIDE",
        Near = "NEAR",
        Around = "AROUND",
        /// Needs `reference_object_1` (and usually `reference_object_2`).
        Between = "BETWEEN",
        /// schema
        Clockwise = "CLOCKWISE",
        /// schema
        Anticlockwise = "ANTICLOCKWISE",
    }
}

vocabulary! {
    /// Where a location is anchored when it names no object explicitly.
    LocationType {
        SpeakerPos = "SPEAKER_POS",
        AgentPos = "AGENT_POS",
        ReferenceObject = "REFERENCE_OBJECT",
        /// schema
        Coordinates = "COORDINATES",
    }
}

vocabulary! {
    /// Who `special_reference` points at.
    FixedReference {
        Speaker = "SPEAKER",
        Agent = "AGENT",
        /// The block the speaker is looking at.
        SpeakerLook = "SPEAKER_LOOK",
    }
}

vocabulary! {
    /// The predicate of a triple: which property of a memory the object text describes.
    Predicate {
        HasName = "has_name",
        HasTag = "has_tag",
        HasBlockType = "has_block_type",
        HasColour = "has_colour",
        HasSize = "has_size",
        HasWidth = "has_width",
        HasHeight = "has_height",
        HasDepth = "has_depth",
        HasLength = "has_length",
        HasThickness = "has_thickness",
        /// schema
        HasRadius = "has_radius",
        /// schema
        HasOrientation = "has_orientation",
        /// schema
        HasDistance = "has_distance",
        /// schema
        HasBase = "has_base",
    }
}

vocabulary! {
    /// Literal triple objects written as `{"fixed_value": ...}` instead of a span.
    FixedText {
        /// The agent itself ("what is your name").
        SelfRef = "SELF",
        Speaker = "SPEAKER",
        /// schema
        Agent = "AGENT",
        /// The task being executed ("what are you doing").
        CurrentlyRunning = "CURRENTLY_RUNNING",
    }
}

vocabulary! {
    /// Which kind of memory a filter searches, or an upsert writes.
    MemoryType {
        ReferenceObject = "REFERENCE_OBJECT",
        Triple = "TRIPLE",
        Reward = "REWARD",
        Agent = "AGENT",
        Tasks = "TASKS",
        /// schema
        Chat = "CHAT",
        /// schema
        Set = "SET",
    }
}

vocabulary! {
    /// Bare-string `output` of a filter: return the memories themselves, or how many there are.
    OutputKind {
        Memory = "MEMORY",
        /// schema
        Count = "COUNT",
    }
}

vocabulary! {
    /// A named attribute of a memory, used for outputs and for argmax/argmin selection.
    AttributeName {
        RunCount = "RUN_COUNT",
        Location = "LOCATION",
        Name = "NAME",
        Height = "HEIGHT",
        Tag = "TAG",
        Colour = "COLOUR",
        BlockType = "BLOCK_TYPE",
        CurrentTime = "CURRENT_TIME",
        BornTime = "BORN_TIME",
        /// schema
        Width = "WIDTH",
        /// schema
        Size = "SIZE",
        /// schema
        X = "X",
        /// schema
        Y = "Y",
        /// schema
        Z = "Z",
        /// schema
        CreateTime = "CREATE_TIME",
        /// schema
        ModifyTime = "MODIFY_TIME",
        /// schema
        VoxelCount = "VOXEL_COUNT",
        /// What the bot or a container holds (craftmate).
        Inventory = "INVENTORY",
    }
}

vocabulary! {
    /// How many of the matching memories to return; also the bare-string form of `selector`.
    QuantityKind {
        All = "ALL",
        Random = "RANDOM",
    }
}

vocabulary! {
    /// Whether a selection may pick the same memory twice.
    Same {
        Allowed = "ALLOWED",
        Disallowed = "DISALLOWED",
        Required = "REQUIRED",
    }
}

vocabulary! {
    /// argmax or argmin.
    Polarity {
        Max = "MAX",
        Min = "MIN",
    }
}

vocabulary! {
    /// The literal ordinal `{"fixed_value": "FIRST"}`.
    FixedOrdinal {
        First = "FIRST",
    }
}

vocabulary! {
    /// The `special` filter: the task being defined (for "do X three times").
    SpecialValue {
        This = "THIS",
    }
}

vocabulary! {
    /// The only value of the bare-string `selector.location` (1 row).
    SelectorPlace {
        Other = "OTHER",
    }
}

vocabulary! {
    /// Whom a command is addressed to, when written as a bare string.
    DialogueTargetKind {
        Agent = "AGENT",
        /// schema
        Swarm = "SWARM",
    }
}

vocabulary! {
    /// The marker meaning "the words here refer back to something" ("this", "there", "it").
    Coreference {
        Yes = "yes",
    }
}

vocabulary! {
    /// When a repeated or open-ended action stops.
    ConditionType {
        Comparator = "COMPARATOR",
        Never = "NEVER",
        AdjacentToBlockType = "ADJACENT_TO_BLOCK_TYPE",
        /// schema
        Time = "TIME",
    }
}

vocabulary! {
    /// How a comparator compares its two inputs.
    ComparisonType {
        Equal = "EQUAL",
        /// schema
        NotEqual = "NOT_EQUAL",
        /// schema
        GreaterThan = "GREATER_THAN",
        /// schema
        LessThan = "LESS_THAN",
        /// schema
        GreaterThanEqual = "GREATER_THAN_EQUAL",
        /// schema
        LessThanEqual = "LESS_THAN_EQUAL",
        /// schema
        CloseTo = "CLOSE_TO",
        /// schema
        ModEqual = "MOD_EQUAL",
        /// schema
        ModClose = "MOD_CLOSE",
    }
}

vocabulary! {
    /// Praise or blame from the speaker ("well done", "no, that was wrong").
    RewardValue {
        Positive = "POSITIVE",
        Negative = "NEGATIVE",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_spelling_round_trips() {
        for value in RelativeDirection::ALL {
            let json = serde_json::to_string(value).unwrap();
            assert_eq!(json, format!("\"{}\"", value.as_str()));
            assert_eq!(serde_json::from_str::<RelativeDirection>(&json).unwrap(), *value);
        }
        assert_eq!(Predicate::HasBlockType.to_string(), "has_block_type");
        assert_eq!(Coreference::Yes.as_str(), "yes");
    }

    #[test]
    fn unknown_spelling_is_an_error() {
        let err = serde_json::from_str::<ActionType>("\"FLY\"").unwrap_err();
        assert!(err.to_string().starts_with("unknown variant `FLY`"), "{err}");
    }
}
