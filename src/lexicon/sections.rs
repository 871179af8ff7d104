//! The lexicon's sections, one enum per kind: word [`Class`]es, meaning [`Group`]s, and the
//! value tables ([`Values`], [`Texts`]). Each variant names the section of `data/lexicon.toml`
//! it is read from; [`super::load`] checks the file against these lists.

/// Declares a section enum: its variants, `ALL`, and the section name each reads in the file.
macro_rules! sections {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $section:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The section of `data/lexicon.toml` it is read from.
            pub fn section(self) -> &'static str {
                match self {
                    $($name::$variant => $section,)+
                }
            }
        }
    };
}

sections! {
    /// A word class: a list of words (or phrases) that play one part in chat. Each section's
    /// comment in `data/lexicon.toml` says what it is for.
    Class {
        Negative = "negative",
        Indefinite = "indefinite",
        OrdinalSuffix = "ordinal_suffixes",
        MeasureNoun = "measure_nouns",
        By = "by",
        MeasureGlue = "measure_glue",
        /// Words that lead to a measure said with its noun ("a cube *with* sides of 7").
        MeasureLead = "measure_leads",
        Upright = "upright",
        /// Words asking for every measure of a thing ("how big", "what size").
        SizeWords = "size_words",
        DirectionGlue = "direction_glue",
        Up = "up",
        Down = "down",
        Inside = "inside",
        Top = "top",
        Clockwise = "clockwise",
        Anticlockwise = "anticlockwise",
        FromHere = "from_here",
        Here = "here",
        There = "there",
        /// The speaker as an object: me, us.
        Me = "me",
        PlaceWord = "place_words",
        Pointing = "pointing",
        /// Pointing words that point back at what was talked about ("it"), not at what the
        /// speaker looks at ("that").
        PointingBack = "pointing_back",
        PointingMany = "pointing_many",
        Hollow = "hollow",
        Solid = "solid",
        GenericThing = "generic_things",
        SuperlativeTail = "superlative_tail",
        BotWords = "bot_words",
        NotPlural = "not_plurals",
        /// Words between a thing and its material ("a wall *of* oak planks").
        MaterialLead = "material_leads",
        /// Nouns counted without a plural ("10 bread").
        MassNoun = "mass_nouns",
        Article = "articles",
        Determiner = "determiners",
        Possessive = "possessives",
        StepVerb = "step_verbs",
        CommandStart = "command_starts",
        Connector = "connectors",
        RewriteAfter = "rewrite_after",
        /// Words before a number that say it is not exact ("*about* 10 blocks").
        Approximately = "approximately",
        /// Before a size word, only a stronger one ("*really* tall").
        Intensifier = "intensifiers",
        EmptyPhrase = "empty_phrases",
        NamingVerb = "naming_verbs",
        NameLead = "name_leads",
        NamingOpening = "naming_openings",
        CallVerb = "call_verbs",
        /// "do you have any …" before a request that leaves the item out.
        HaveAny = "have_any",
        /// Verbs that give a thing already there a new look when a colour ends the line ("make
        /// it black", "turn the cube blue").
        PaintChange = "paint_changes",
        /// Words between the thing and its new look ("turn it *into* glass").
        PaintLead = "paint_leads",
        PaintWish = "paint_wishes",
        /// Words that take back what was just said in the line ("*actually no*, make it red").
        ChangeOfMind = "change_of_mind",
        /// A part of a thing that painting changes ("the house *walls*").
        PaintedPart = "painted_parts",
        /// Words between a part and its thing ("the walls *of* the house").
        PartLink = "part_links",
        /// Words that give a thing a new name in place of its old ones ("rename").
        RenameWords = "rename_words",
        RememberVerb = "remember_verbs",
        NameBreaker = "name_breakers",
        /// What a player thinks of a thing ("ugly", "cool"), never a name for it.
        Judgement = "judgements",
        /// Words that stop what the bot is doing ("hold up", "that's enough").
        StopWord = "stop_words",
        /// Small words around a stop word ("for a sec").
        StopTail = "stop_tails",
        StopComment = "stop_comments",
        PointingPlural = "pointing_plural",
        Address = "address",
        /// Words between a thing and the name given to it ("the red cube's name is fred").
        NameIs = "name_is",
        GiveOpening = "give_openings",
        /// Openings of a request to hand an item to another player ("give bob …").
        GiveToOpening = "give_to_openings",
        QuantityWord = "quantity_words",
        Reason = "reasons",
        RequestEnd = "request_ends",
        PlaceStart = "place_starts",
        Filler = "filler",
        Politeness = "politeness",
        Opening = "openings",
        Closing = "closings",
        Greeting = "greetings",
        TimeOfDay = "times_of_day",
        Yes = "yes",
        No = "no",
        Cancel = "cancel",
        AnswerFiller = "answer_fillers",
        /// Words between a "no" and what the player meant instead ("i meant").
        CorrectionLead = "correction_leads",
        Praise = "praise",
        PraiseCompany = "praise_company",
        HowTo = "how_to",
        DidYou = "did_you",
        DidYouWords = "did_you_words",
        WhatBuilt = "what_built",
        /// Openings of a question about what the player asked for ("what did i ask you").
        AskedMe = "asked_me",
        /// The one before the last ("before", "earlier").
        Before = "before",
        BuiltVerb = "built_verbs",
        WhatBuiltWords = "what_built_words",
        Counting = "counting",
        You = "you",
        QuestionOpening = "question_openings",
        /// Words joining two questions in one line ("where are you *and* what are you doing").
        QuestionJoint = "question_joints",
        /// More than one without a number ("some cows", "several pigs").
        Several = "several",
        /// Where a thing just named stood: "in its place", "where it was".
        InItsPlace = "in_its_place",
        /// How a request opens without changing what it asks ("could you", "i want you to").
        Request = "requests",
        /// How a player says they want a thing ("i want a …", "can i have …").
        Want = "wants",
        /// How a line naming a thing to build may end as a want ("… would be nice").
        WantEnd = "want_ends",
        /// The small words of a question about finished work, around the thing it asks about.
        DidYouSmall = "did_you_small",
        /// Words about what players taught the bot ("learn", "taught").
        LessonWord = "lesson_words",
        /// Words that take something back ("forget", "wipe").
        ForgetWord = "forget_words",
        /// Whole lines asking where the speaker is.
        WhereAmI = "where_am_i",
        /// How an answer points by looking ("the one i'm looking at").
        LookingAt = "looking_at",
        /// Whole lines asking what the speaker stands on.
        UnderMe = "under_me",
        /// How a request may end with its reason ("… its getting dark").
        ReasonTail = "reason_tails",
        /// Words before the thing whose blocks are counted ("for", "in").
        ThingOf = "thing_of",
        /// Openings of a question asking what a thing is called ("what did i call").
        NameQuestion = "name_questions",
        /// How a question about a thing's blocks ends ("made of").
        MadeOf = "made_of",
        /// The words between "what" and "at X Y Z" ("what block is at").
        WhatAtWords = "what_at_words",
        /// Openings of a question asking for every such thing ("which things are").
        WhichThings = "which_things",
        /// Openings of a question whether something is in the world ("is there any").
        AnyOpening = "any_openings",
        /// How such a question ends with where to look ("around here", "nearby").
        Around = "around",
        /// How a question asks for the blocks a thing has ("how many blocks").
        BlockCount = "block_count",
        /// Words asking only about the most recent one ("last", "latest").
        Latest = "latest",
        /// After a thing's description that opens a line, words giving it the name after
        /// ("the blue one *is* gus").
        DescribedIs = "described_is",
        /// After an undo or a destroy: words sparing another thing ("but *leave* the cube").
        Spare = "spare",
        /// After a thing: the bot just made it ("the pyramid you just made").
        JustMade = "just_made",
        /// Verbs of two words whose second may follow the thing ("knock greg *down*").
        SplitVerb = "split_verbs",
        /// A build turned to face the speaker ("a wall *facing me*").
        FacingMe = "facing_me",
        /// After a thing, its side toward the speaker ("beside the tower, *on the side facing me*").
        SideFacingMe = "side_facing_me",
        /// Relations that name no side of a thing ("beside", "next to").
        AnySide = "any_side",
        /// Words asking only about the oldest one ("first", "earliest").
        Earliest = "earliest",
        /// Shape words meaning a single block when no size is said ("a gold block").
        OneBlock = "one_block",
        /// A name the parser reads well, read in the place of one it never saw.
        StandInName = "stand_in_name",
        /// Companion jobs: mining, chopping, harvesting, chests, dropping and crafting.
        GatherParticle = "gather_particles",
        GatheringGet = "gathering_gets",
        TreeWord = "tree_words",
        Container = "containers",
        IntoWord = "into_words",
        OutOfWord = "out_of_words",
        Delivery = "delivery",
        ToolLead = "tool_leads",
        JobTail = "job_tails",
        AllWords = "all_words",
        InventoryQuestion = "inventory_questions",
        ContentsQuestion = "contents_questions",
        FarmWord = "farm_words",
        ItemAdjective = "item_adjectives",
        ToolOpening = "tool_openings",
        GoToJob = "go_to_job",
        StageVerb = "stage_verbs",
        StageJoint = "stage_joints",
        AskingModal = "asking_modals",
        PlaceLead = "place_leads",
        PutVerb = "put_verbs",
        TakeVerb = "take_verbs",
    }
}

sections! {
    /// A meaning group: each key of the section is a meaning, its value the words that mean it.
    Group {
        Dimension = "dimensions",
        Size = "sizes",
        Stretch = "stretch",
        Superlative = "superlatives",
        /// The nearest or farthest of several things ("the closest one").
        Nearness = "nearness",
        Compass = "compass",
        Relative = "relative",
        Relation = "relations",
        /// Short relation words that relate only to a pointing word ("on it", "in that").
        PointingRelation = "pointing_relations",
        Shape = "shapes",
        NameKey = "name_keys",
        Colour = "colours",
        Material = "materials",
        Terrain = "terrain",
        Verb = "verbs",
        AboutMe = "about_me",
        /// Dances by name ("spin", "do a little jump", "walk in a circle").
        Dance = "dances",
        /// What players gather, by kind ("diamonds" → diamond, "trees" → wood).
        Resource = "resources",
    }
}

sections! {
    /// A table of words (or phrases) and the number each is worth.
    Values {
        Number = "numbers",
        Scale = "number_scales",
        Multiple = "number_multiples",
        Quantity = "quantities",
        Ordinal = "ordinals",
        Unit = "units",
    }
}

sections! {
    /// A table of words (or phrases) and the text each stands for.
    Texts {
        Plural = "plurals",
        Rewrite = "rewrites",
        /// Phrases said in other words wherever they stand ("where i'm looking" → "there").
        Anywhere = "anywhere",
        Shorthand = "shorthand",
        /// Words after a thing being built that give its name ("a tower *named* rex"), and the
        /// naming step they start ("and call it").
        Named = "named_words",
        /// Game ids said in other words ("grass_block" → "grass").
        DisplayName = "display_names",
    }
}
